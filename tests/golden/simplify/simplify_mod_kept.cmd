simplify two_level.tlop 'sum i = 0 .. p : P % 2^(i + 1)' --assume 'P = 2^p'
