eval pf_nan_cost.tlop 'L(1KiB, 1)'
