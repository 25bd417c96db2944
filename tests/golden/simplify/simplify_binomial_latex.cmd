simplify simplify.tlop 'sum i = 0 .. ceil(log2(P)) - 1 : 2^i ∥ (2 * L(S, 1) + (k - 1) * L(S, 2))' --format latex
