check param_cycle.tlop
