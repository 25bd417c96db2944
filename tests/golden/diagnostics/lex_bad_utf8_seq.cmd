check lex_bad_utf8_seq.tlop
