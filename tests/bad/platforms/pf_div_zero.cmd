eval pf_div_zero.tlop 'L(1KiB, 1)'
