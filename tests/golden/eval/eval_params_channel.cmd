eval ev.tlop 'L[lab](1KiB, 2) + o[lab](1KiB) + 0 * L(1KiB, 1)' --params lab=chan.txt --format plain
