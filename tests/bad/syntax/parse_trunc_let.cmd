check parse_trunc_let.tlop
