explain ../../../stdlib/openmpi/allreduce.tlop allreduce_rabenseifner --set m=1MiB,P=12
