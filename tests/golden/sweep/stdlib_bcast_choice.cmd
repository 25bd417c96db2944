explain ../../../stdlib/mpich/bcast.tlop bcast --set m=64KiB,P=16
