eval ev.tlop 'L(1KiB, 2)' --params lex_binary.tlop
