eval ../../../stdlib/mpich/bcast.tlop 'bcast_binomial(m, P, M, lay)' --set 'm=64KiB,P=8,M=4,lay=nodes(0,x)'
