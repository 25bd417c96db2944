eval pf_negative_cost.tlop 'L(1KiB, 1)'
