check lex_ascii.tlop
