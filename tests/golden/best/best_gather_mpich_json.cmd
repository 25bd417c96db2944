best ../../../stdlib/mpich/gather.tlop --collective gather --grid m=1..4MiB:*16 --grid P=2,32 --refine --emit mpich-json -o -
