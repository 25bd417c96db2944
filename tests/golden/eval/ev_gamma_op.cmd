eval pf_gamma.tlop 'gamma(prod, 1KiB, 1)'
