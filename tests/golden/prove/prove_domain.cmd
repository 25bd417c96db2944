prove prove_domain.tlop
