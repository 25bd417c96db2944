eval ../../../stdlib/mpich/bcast.tlop 'allgather_rda(m, P)' --set m=1KiB,P=8 --params chan.txt
