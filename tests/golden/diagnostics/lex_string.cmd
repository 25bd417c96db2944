check lex_string.tlop
