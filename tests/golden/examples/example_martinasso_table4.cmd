sweep ../../../examples/martinasso.tlop bcast_B bcast_B_indep --grid net=0,1,2
