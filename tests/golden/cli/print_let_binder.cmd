dump-ir -f tlop print_let_binder.tlop 'a(m)'
