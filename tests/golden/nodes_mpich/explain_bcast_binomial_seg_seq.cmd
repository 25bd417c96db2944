explain ../../../stdlib/mpich/bcast.tlop bcast_binomial_seg --set m=64KiB,P=8,M=4,map=sequential
