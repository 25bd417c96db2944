check lex_surrogate.tlop
