simplify two_level.tlop scatter_mod --assume 'P = 2^p'
