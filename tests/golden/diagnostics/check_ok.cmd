check ev.tlop pf_table.tlop pf_gamma.tlop
