check lex_empty.tlop
