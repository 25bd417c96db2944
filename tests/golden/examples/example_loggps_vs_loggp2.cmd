sweep ../../../examples/loggps.tlop p2p loggp2 --grid k=1024,8191
