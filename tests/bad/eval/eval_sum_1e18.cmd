eval ev.tlop 'sum i = 0 .. 10^18 : i * L(1KiB, 1)'
