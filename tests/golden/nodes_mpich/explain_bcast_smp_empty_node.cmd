explain ../../../stdlib/mpich/bcast.tlop bcast_smp --set m=4KiB,P=5,M=4,map=sequential
