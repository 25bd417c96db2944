eval ../../../stdlib/mpich/bcast.tlop 'bcast_binomial(m, P, M, lay) - bcast_binomial(m, P, M, nodes(0,0,1,1,2,2,3,3))' --set 'm=64KiB,P=8,M=4,lay=nodes(0,0,1,1,2,2,3,3)'
