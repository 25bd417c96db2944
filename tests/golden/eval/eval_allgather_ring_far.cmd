eval ../../../stdlib/mpich/bcast.tlop 'allgather_ring(m, P)' --set m=10KiB,P=4 --params chan.txt --format plain
