simplify op_reduce.tlop 'if P < 2 then 0 else (P - 1) * gamma(max, m, 1) + (if P < 2 then 0 else o(m) + L(m, P - 1) + (P - 1) * L(m, 1))' --format tlop
