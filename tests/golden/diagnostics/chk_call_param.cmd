check chk_call_param.tlop
