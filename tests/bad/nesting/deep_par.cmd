check deep_par.tlop
