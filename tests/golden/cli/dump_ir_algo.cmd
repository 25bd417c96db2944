dump-ir ../../../stdlib/mpich/bcast.tlop bcast_binomial
