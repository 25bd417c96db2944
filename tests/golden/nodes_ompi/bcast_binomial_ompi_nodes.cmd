explain ../../../stdlib/openmpi/bcast.tlop bcast_binomial_ompi --set m=64KiB,P=8,M=4,map=nodes(0,1,1,2,3,3,0,2)
