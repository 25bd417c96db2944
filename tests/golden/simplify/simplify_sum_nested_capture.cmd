simplify ../../bad/eval/ev.tlop 'sum y = 0 .. 3 : sum i = 0 .. 2 : L(m / 2^y + i * m, 1)'
