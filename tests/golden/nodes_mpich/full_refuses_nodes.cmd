eval ../../../stdlib/mpich/bcast.tlop 'bcast_binomial_full(m, P)' --set m=64KiB,P=8,M=4,map=round_robin
