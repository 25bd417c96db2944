eval ev.tlop 'L(1KiB, 2)' --params tab_nan_lower.txt
