best best_reduce_scatter.tlop --collective reduce_scatter --grid m=1..256KiB:*8 --grid P=2,3,4,8 --refine --emit ompi-rules-v1 -o -
