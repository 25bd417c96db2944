check lex_number_dot.tlop
