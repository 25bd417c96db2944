best ../../../stdlib/mpich/gather.tlop --collective scatter --grid m=1KiB..4MiB:*16 --grid P=2,8,32 --refine --emit impi -o -
