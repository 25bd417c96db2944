simplify simplify.tlop 'sum j = 0 .. P - 1 : L(j * m, 8) + o(2^j * m)' --set m=1,P=4 --format tlop
