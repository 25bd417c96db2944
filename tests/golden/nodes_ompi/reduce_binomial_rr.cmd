explain ../../../stdlib/openmpi/reduce.tlop reduce_binomial --set m=64KiB,P=8,M=4,map=round_robin
