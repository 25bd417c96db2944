eval ../../../stdlib/mpich/bcast.tlop 'bcast_binomial(1KiB, 4)' --params tab_notau.txt
