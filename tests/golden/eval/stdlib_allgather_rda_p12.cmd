explain ../../../stdlib/mpich/bcast.tlop allgather_rda --set m=64KiB,P=12
