simplify ev.tlop 'sum i = 1 .. 3 : sum j = 1 .. 2 : L(i * j * 1KiB, 1)' --unroll --max-unroll 2
