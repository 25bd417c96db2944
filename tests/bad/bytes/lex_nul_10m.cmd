check lex_nul_10m.tlop
