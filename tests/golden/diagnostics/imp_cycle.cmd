check imp_cycle_a.tlop
