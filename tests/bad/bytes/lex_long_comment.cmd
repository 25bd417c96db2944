check lex_long_comment.tlop
