explain ../../../stdlib/mpich/alltoallv.tlop alltoallv_pairwise_sendrecv_replace --set m=64KiB,P=6,M=4,map=sequential
