explain ../../../stdlib/mpich/bcast.tlop bcast_binomial_mpich --set m=64KiB,P=8,M=4,map=sequential
