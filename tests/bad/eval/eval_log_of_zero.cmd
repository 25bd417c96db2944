eval ev.tlop 'log(2, 0)'
