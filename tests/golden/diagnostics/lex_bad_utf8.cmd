check lex_bad_utf8.tlop
