sweep ../../../examples/martinasso_flows.tlop bcast_B_flows bcast_B --grid net=0,1,2
