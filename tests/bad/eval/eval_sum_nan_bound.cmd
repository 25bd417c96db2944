eval ev.tlop 'sum i = 0 .. 0/0 : L(1KiB, 1)'
