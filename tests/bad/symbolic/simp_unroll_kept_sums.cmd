simplify ev.tlop 'sum i = 1 .. 32 : sum j = 1 .. 32 : sum k = 1 .. 32 : L(m * i + j * k, i + k)' --unroll --max-unroll 1024 --max-print 1000
