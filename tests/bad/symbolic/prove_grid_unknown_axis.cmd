prove prove_grid.tlop --platform p --grid Q=2,4 --grid m=1KiB
