explain ../../../stdlib/mpich/barrier.tlop barrier_dissemination --set m=0,P=6,M=4,map=sequential
