check lex_huge_ident.tlop
