check op_as_number.tlop
