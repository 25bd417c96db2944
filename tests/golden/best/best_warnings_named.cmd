best best_allgather.tlop --collective allgather --grid m=1..4MiB:*16 --grid P=2,3,4,8 --params ../sweep/chan.txt
