check lex_latin1.tlop
