eval ev.tlop '1e308 * 10'
