check op_default_order.tlop
