check lex_tab_caret.tlop
