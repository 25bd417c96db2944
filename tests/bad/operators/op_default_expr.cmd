check op_default_expr.tlop
