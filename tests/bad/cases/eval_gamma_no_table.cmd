eval ev.tlop 'gamma(sum, 1KiB, 1)'
