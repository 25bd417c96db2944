eval ev.tlop 'L(1KiB, 0.5)' --params chan.txt
