eval ../../../stdlib/mpich/bcast.tlop 'allgather_ring(m, P)' --set m=1KiB,P=32,MM=4
