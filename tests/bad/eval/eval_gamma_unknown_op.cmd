eval ev_no_gamma.tlop 'gamma(nosuchop, 1KiB, 1)'
