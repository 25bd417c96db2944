simplify --format tlop simplify.tlop 'max i = 0 .. n : (3 + i * L(m, 2)) + max j = 1 .. 3 : (j - 2)^2 * o(m)' --unroll
