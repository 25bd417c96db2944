explain ../../../stdlib/mpich/bcast.tlop bcast_smp --set m=64KiB,P=32,M=4,map=round_robin
