explain ../../../stdlib/openmpi/reduce.tlop reduce_linear --set m=64KiB,P=6,M=2,map=sequential
