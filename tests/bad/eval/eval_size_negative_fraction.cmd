eval ev.tlop 'L(-0.5 B, 1)'
