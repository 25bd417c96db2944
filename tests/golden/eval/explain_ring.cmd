explain ../../../stdlib/mpich/bcast.tlop allgather_ring --set m=1KiB,P=4 --params chan.txt
