explain ../../../stdlib/mpich/bcast.tlop bcast_scatter_rda --set m=256KiB,P=16,M=4,map=round_robin
