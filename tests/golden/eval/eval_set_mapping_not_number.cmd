eval ../../../stdlib/mpich/bcast.tlop 'bcast_binomial(m, P, map)' --set m=64KiB,P=8,map=round_robin
