best best_lab.tlop --collective bcast --grid m=1KiB..4MiB:*4 --grid P=8 --tie 40%
