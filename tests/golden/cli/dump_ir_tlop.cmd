dump-ir ../../../stdlib/mpich/bcast.tlop 'bcast_binomial(4KiB, 12)' --format tlop
