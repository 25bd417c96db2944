prove prove_decided.tlop
