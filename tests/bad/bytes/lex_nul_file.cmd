check lex_nul_file.tlop
