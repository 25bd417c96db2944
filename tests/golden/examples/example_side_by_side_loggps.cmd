sweep ../../../examples/side_by_side.tlop bcast_binomial --grid P=64,65,128 --set m=64KiB --platform loggps_myrinet --format table
