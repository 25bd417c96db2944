simplify two_level.tlop scatter_mod
