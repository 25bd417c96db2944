eval ev.tlop 'sum i = 2^53 .. 2^53 + 10 : i * L(1KiB, 1)'
