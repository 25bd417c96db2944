check lex_unit_alone.tlop
