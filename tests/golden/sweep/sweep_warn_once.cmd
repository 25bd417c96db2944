sweep ../../../stdlib/mpich/bcast.tlop bcast_binomial allgather_ring --grid m=100..1MiB:*1.01 --grid P=2..9:+1 --params chan.txt --engine interp -o /dev/null
