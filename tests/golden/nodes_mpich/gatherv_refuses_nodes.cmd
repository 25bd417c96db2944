eval ../../../stdlib/mpich/gather.tlop 'gatherv_linear(m, P, 2)' --set m=64KiB,P=8
