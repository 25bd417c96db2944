check imp_missing.tlop
