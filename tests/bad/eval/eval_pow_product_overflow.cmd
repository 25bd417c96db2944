eval ev.tlop '2^1024 * 2^1024 * 0.5'
