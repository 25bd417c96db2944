sweep ../../../examples/loggps.tlop protocol --grid k=1,2,3,4,5 --set s_gps=2,S_gps=4
