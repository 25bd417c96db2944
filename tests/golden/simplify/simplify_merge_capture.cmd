simplify simplify.tlop 'i * (sum i = 1 .. P : L(m, i)) + (sum j = 1 .. P : L(m, j + 1)) + (sum q = 1 .. P : L(m, 2 * q))'
