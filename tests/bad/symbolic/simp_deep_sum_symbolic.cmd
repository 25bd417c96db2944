simplify ev.tlop 'sum i = 0 .. n : sum j = 0 .. i : sum k = 0 .. j : 2^k * L(S, 1)'
