best ../../../stdlib/mpich/bcast.tlop --collective bcast bcast_smp bcast_binomial --grid m=1000,600000 --grid P=16 --set M=4,map=nodes(0,1,1,2,3,0,2,3,1,0,3,2,2,1,0,0)
