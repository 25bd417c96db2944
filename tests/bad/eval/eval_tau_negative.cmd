eval ev.tlop 'L(1KiB, -1)'
