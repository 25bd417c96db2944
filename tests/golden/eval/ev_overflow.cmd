eval ev.tlop '2^100000'
