prove prove_monotone.tlop
