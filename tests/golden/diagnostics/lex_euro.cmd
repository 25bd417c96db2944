check lex_euro.tlop
