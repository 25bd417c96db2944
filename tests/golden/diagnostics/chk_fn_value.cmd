check chk_fn_value.tlop
