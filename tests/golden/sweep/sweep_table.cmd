sweep ../../../stdlib/mpich/bcast.tlop bcast_binomial allgather_ring --grid m=1KiB..4KiB:*2 --grid P=2,4 --params chan.txt --format table
