prove prove_kept_whole.tlop
