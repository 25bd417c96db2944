eval ev.tlop 'L(1e15 B, 1)' --params tab_far_beyond.txt
