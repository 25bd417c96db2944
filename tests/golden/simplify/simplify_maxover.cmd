simplify simplify.tlop 'max i = 0 .. n : 3 + i * i'
