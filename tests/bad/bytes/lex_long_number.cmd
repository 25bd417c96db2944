eval lex_long_number.tlop x
