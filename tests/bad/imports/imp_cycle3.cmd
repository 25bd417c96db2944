check imp_cycle3.tlop
