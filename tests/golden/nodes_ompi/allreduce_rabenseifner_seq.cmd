explain ../../../stdlib/openmpi/allreduce.tlop allreduce_rabenseifner --set m=64KiB,P=6,M=2,map=sequential
