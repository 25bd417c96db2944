sweep ../../../stdlib/mpich/bcast.tlop bcast_binomial --grid m=1KiB,2KiB --grid P=2..4:+2 --params chan.txt --format json
