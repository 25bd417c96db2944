eval ev.tlop 'L(1KiB, 2)' --params tab_all_zero.csv
