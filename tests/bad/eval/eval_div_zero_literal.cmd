eval ev.tlop '1/0'
