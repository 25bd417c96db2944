sweep ../../../stdlib/mpich/bcast.tlop bcast_binomial --grid P=1KiB,2KiB --set m=1KiB --params chan.txt
