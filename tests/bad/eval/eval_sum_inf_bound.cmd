eval ev.tlop 'sum i = 0 .. 1e999 : i * L(1KiB, 1)'
