simplify ../../bad/eval/ev.tlop 'sum j = 1 .. log2(P) : sum q = 0 .. log2(P) : L(m, 1)' --format tlop
