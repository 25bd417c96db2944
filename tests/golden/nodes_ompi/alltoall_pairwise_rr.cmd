explain ../../../stdlib/openmpi/alltoall.tlop alltoall_pairwise --set m=64KiB,P=8,M=4,map=round_robin
