check lex_overlong.tlop
