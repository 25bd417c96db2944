check lex_utf16.tlop
