check chk_arity.tlop
