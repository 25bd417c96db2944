simplify ev.tlop 'sum i = 0 .. 10^6 : 2^i * L(S, 1)' --unroll
