explain ../../../stdlib/mpich/bcast.tlop bcast_smp --set m=4KiB,P=16,M=4,map=nodes(0,1,1,2,3,0,2,3,1,0,3,2,2,1,0,0)
