eval ev.tlop 'L(1e999 B, 1)'
