best best_lab.tlop --collective bcast bcast_binomial_mpich --grid m=1KiB..4MiB:*4 --grid P=8 --emit ompi-rules -o -
