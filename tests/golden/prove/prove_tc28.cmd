prove prove_tc28.tlop
