simplify ../../bad/eval/ev.tlop 'P ||[net] (sum i = 0 .. k : max((2^i ∥ (o(m/2) + L(m/2, 1))) + (sum j = 0 .. min(P, 5) : (2^j ∥ (o(m) + L(m, 1)))), P ∥ L(m/P, 1)))' --format tlop --unroll
