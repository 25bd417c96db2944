prove prove_maxover.tlop
