explain ../../../stdlib/openmpi/allgather.tlop allgather_neighbor --set m=64KiB,P=8,M=4,map=round_robin
