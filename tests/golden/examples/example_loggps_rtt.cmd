sweep ../../../examples/loggps.tlop rtt --grid w_gps=0,10us,100us --set k=1024
