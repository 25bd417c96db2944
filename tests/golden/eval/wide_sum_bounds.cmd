eval wide_sums.tlop 'let k = 1 in 1/2 * (k * (1 s + (sum i = 1 .. k : 1 s)))' --engine interp
