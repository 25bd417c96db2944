best ../../../stdlib/openmpi/reduce.tlop --collective reduce --grid m=1KiB..4MiB:*16 --grid P=2,8,32 --refine --emit ompi-json -o -
