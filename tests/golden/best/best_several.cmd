best best_several.tlop --collective bcast,allreduce --grid m=1KiB..4MiB:*4 --grid P=2,8 --refine --emit ompi-rules-v1 -o -
