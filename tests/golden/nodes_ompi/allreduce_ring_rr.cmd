explain ../../../stdlib/openmpi/allreduce.tlop allreduce_ring --set m=1MiB,P=8,M=4,map=round_robin
