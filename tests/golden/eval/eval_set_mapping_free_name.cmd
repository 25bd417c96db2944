eval ../../../stdlib/mpich/bcast.tlop 'bcast_binomial(m, P, M, map) - bcast_binomial(m, P, M, round_robin)' --set m=64KiB,P=8,M=4,map=round_robin
