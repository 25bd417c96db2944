sweep ../../../stdlib/mpich/bcast.tlop bcast_binomial --grid m=1KiB --grid m=2KiB --grid P=2 --params chan.txt
