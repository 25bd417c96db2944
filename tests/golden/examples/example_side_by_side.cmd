sweep ../../../examples/side_by_side.tlop bcast_binomial loggp_bcast_binomial lognp_bcast_binomial hockney_bcast_binomial log3p_binomial --grid P=64,65,128 --set m=64KiB --format table
