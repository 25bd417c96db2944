check lex_crlf_error.tlop
