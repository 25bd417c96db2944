eval ev.tlop 'log2(-1)'
