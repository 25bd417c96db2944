eval ev.tlop 'x + 1'
