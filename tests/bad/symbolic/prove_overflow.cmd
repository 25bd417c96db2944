prove prove_overflow.tlop
