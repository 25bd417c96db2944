eval ../../../examples/loggps.tlop 'bcast_binomial(m, P)' --set m=1KiB,P=8 --platform loggps_myrinet
