check op_result.tlop
