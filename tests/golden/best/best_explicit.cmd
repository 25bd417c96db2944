best best_lab.tlop --collective bcast bcast_binomial bcast_binomial_full --grid m=1KiB,1MiB --grid P=5,8
