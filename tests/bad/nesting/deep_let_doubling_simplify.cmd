simplify deep_let_doubling.tlop 'a(m)'
