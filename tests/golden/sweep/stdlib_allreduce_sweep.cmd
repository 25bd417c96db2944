sweep ../../../stdlib/openmpi/allreduce.tlop allreduce_recursive_doubling allreduce_rabenseifner allreduce_ring allreduce_ring_segmented --grid P=2,3,7,8,12 --set m=1MiB --format table
