eval ev.tlop 'log(1, 8)'
