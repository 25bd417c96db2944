eval ../../../stdlib/openmpi/bcast.tlop 'bcast_knomial(1 KiB, 8)' --params ../../../examples/emit/shm.txt --set ompi_knomial_radix=1
