check op_check_literal.tlop
