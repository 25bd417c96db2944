check chk_undef_fn.tlop
