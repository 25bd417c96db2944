best ../../../stdlib/openmpi/allreduce.tlop --collective allreduce --grid m=1KiB..4MiB:*16 --grid P=2,8,32 --refine --emit ompi-rules -o -
