check -I ../../../stdlib ../../../stdlib/mpich/bcast.tlop ../../../stdlib/taulop/transmission.tlop ../../../stdlib/platforms/generic.tlop
