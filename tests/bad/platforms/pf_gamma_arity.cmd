check pf_gamma_arity.tlop
