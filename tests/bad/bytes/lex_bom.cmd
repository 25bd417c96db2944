check lex_bom.tlop
