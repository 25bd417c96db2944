eval ev.tlop 'L(512 B, 1)' --params tab_huge_values.txt
