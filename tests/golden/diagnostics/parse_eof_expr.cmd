eval ev.tlop '1 +'
