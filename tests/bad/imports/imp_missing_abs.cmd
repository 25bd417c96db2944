check imp_missing_abs.tlop
