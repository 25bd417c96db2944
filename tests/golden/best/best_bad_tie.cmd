best best_lab.tlop --collective bcast --grid m=1KiB --grid P=8 --tie much
