eval ev.tlop 'log(0, 8)'
