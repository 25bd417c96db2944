check lex_cr_only.tlop
