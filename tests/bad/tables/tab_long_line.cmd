eval ev.tlop 'L(1KiB, 2)' --params tab_long_line.txt
