simplify ../../bad/eval/ev.tlop 'sum i = 1 .. P - 1 : L(m / (P - 1), 1)' --assume 'P >= 1'
