best ../../../stdlib/openmpi/bcast.tlop --collective bcast --grid m=1KiB..4MiB:*16 --grid P=2,8,32 --refine --emit mpich-json -o -
