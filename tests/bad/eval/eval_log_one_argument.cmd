eval ev.tlop 'log(4)'
