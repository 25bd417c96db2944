best best_lab.tlop --collective bcast --grid P=2,8,32 --grid m=1KiB..4MiB:*4 --refine
