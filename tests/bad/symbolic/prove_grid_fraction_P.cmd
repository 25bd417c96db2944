prove prove_grid.tlop --platform p --grid P=2,2.5 --grid m=1KiB
