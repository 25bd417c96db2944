check lex_binary.tlop
