best best_several.tlop --collective bcast,allreduce bcast_binomial --grid m=1KiB..4MiB:*4 --grid P=2,8
