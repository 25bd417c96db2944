eval ev.tlop 'sum i = 0 .. 10^5 : sum j = 0 .. 10^5 : (i + j) * L(1KiB, 1)'
