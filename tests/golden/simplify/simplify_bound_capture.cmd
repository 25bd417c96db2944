simplify prove_linear_assumption.tlop -f tlop --assume 'n - i <= 10' -- 'sum j = 0 .. 20 : min(n - j, 10)'
