explain ../../../stdlib/openmpi/allreduce.tlop allreduce_recursive_doubling --set m=64KiB,P=6,M=4,map=round_robin
