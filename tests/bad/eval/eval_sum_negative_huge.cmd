eval ev.tlop 'sum i = -10^18 .. 0 : i * L(1KiB, 1)'
