eval ev.tlop 'L(1MiB, 4)' --params tab_one_row.txt
