eval ev.tlop 'L(1KiB, 0.5)' --params tab_tau_below_one.txt
