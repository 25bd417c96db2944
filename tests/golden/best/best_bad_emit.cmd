best best_lab.tlop --collective bcast --grid m=1KiB --grid P=8 --emit mpi-rules -o x
