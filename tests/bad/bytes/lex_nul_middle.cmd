check lex_nul_middle.tlop
