simplify prove_linear_assumption.tlop -f tlop --assume 'x + y <= z + w' -- 'max(x + y, z + w) + min(z + w - y, x)'
