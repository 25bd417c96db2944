eval ev_no_gamma.tlop 'gamma(sum, 1KiB, 1)'
