eval ev.tlop 'L(1MiB, 1)' --params tab_single_zero_row.txt
