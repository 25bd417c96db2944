explain ../../../stdlib/mpich/gather.tlop gatherv_linear --set m=64KiB,P=8,M=4,map=sequential
