eval ../../../stdlib/openmpi/bcast_sm.tlop 'bcast_sm(1 MiB, 8, 2, 4)'
