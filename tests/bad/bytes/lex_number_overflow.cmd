eval lex_number_overflow.tlop x
