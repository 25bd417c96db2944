eval ../../../stdlib/mpich/bcast.tlop 'bcast_binomial(1KiB, 12)' --params chan.txt --format plain
