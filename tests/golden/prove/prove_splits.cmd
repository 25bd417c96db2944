prove prove_splits.tlop
