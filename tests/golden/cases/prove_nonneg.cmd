prove prove_nonneg.tlop
