best best_allgather.tlop --collective allgather --grid m=1..1MiB:*8 --grid P=2,3,4,8 --refine --emit ompi-rules-v1 -o -
