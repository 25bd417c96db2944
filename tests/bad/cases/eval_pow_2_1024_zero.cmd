eval ev.tlop '2^1024 * 0'
