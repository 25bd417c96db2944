sweep alltoall_bruck.tlop alltoall_bruck alltoall_pairwise --grid m=1KiB,1MiB --grid P=8,64 --format table
