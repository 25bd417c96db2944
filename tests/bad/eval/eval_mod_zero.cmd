eval ev.tlop '5 % 0'
