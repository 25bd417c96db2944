check lex_byte_ff.tlop
