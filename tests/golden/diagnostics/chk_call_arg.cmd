check chk_call_arg.tlop
