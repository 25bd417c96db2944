eval ev_free.tlop 'x + 1'
