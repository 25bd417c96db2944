eval ev.tlop 'L(m, 1)'
