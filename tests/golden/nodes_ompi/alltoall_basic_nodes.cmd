explain ../../../stdlib/openmpi/alltoall.tlop alltoall_basic --set m=64KiB,P=4,M=2,map=nodes(0,1,1,0)
