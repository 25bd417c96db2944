eval lex_size_overflow.tlop x
