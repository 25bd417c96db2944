explain ../../../stdlib/mpich/gather.tlop gather_binomial --set m=64KiB,P=12,M=4,map=round_robin
