check op_param_global.tlop
