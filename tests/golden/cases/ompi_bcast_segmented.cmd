sweep ompi_bcast_segmented.tlop bcast_pipeline bcast_chain bcast_bintree bcast_binomial_segmented bcast_knomial --grid P=4,8 --set m=3KiB,ompi_bcast_segsize=1KiB --engine jit --format csv
