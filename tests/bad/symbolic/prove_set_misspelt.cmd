prove prove_grid.tlop --set p=16
