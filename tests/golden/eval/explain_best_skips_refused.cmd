best ../../../stdlib/mpich/bcast.tlop --collective bcast --grid m=16KiB,64KiB,1MiB --grid P=12,16,24 --refine
