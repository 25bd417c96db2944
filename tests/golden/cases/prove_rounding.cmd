prove prove_rounding.tlop
