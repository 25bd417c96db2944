check lex_comment.tlop
