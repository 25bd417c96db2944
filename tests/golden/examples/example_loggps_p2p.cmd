sweep ../../../examples/loggps.tlop p2p --grid k=1024,10000,20000
