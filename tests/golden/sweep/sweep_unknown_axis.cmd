sweep ../../../stdlib/mpich/bcast.tlop bcast_binomial --grid m=1KiB --grid P=2 --grid Q=1,2 --params chan.txt
