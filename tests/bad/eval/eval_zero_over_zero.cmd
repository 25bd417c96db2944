eval ev.tlop '0/0'
