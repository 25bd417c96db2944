eval ev.tlop 'L(256, 1)' --params tab_from512.txt --format plain
