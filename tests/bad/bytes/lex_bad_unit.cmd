check lex_bad_unit.tlop
