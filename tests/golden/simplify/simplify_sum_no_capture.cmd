simplify ../../bad/eval/ev.tlop 'sum i = 1 .. 3 : i ∥ (sum j = 0 .. 1 : L(m, 1))'
