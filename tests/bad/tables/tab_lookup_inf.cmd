eval ev.tlop 'L(1 MiB, 1)' --params tab_lookup_inf.txt
