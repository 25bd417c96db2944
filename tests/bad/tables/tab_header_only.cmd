eval ev.tlop 'L(1KiB, 2)' --params tab_header_only.txt
