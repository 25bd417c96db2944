explain ../../../stdlib/mpich/alltoallv.tlop alltoallv_scattered --set m=64KiB,P=6,M=4,map=sequential
