sweep ../../../stdlib/openmpi/allgather.tlop allgather_recursive_doubling allgather_bruck allgather_neighbor allgather_ring_ompi --grid m=1KiB --grid P=3,4,5,6 --format table
