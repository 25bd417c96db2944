eval ../../../examples/loggps.tlop 'p2p(k)' --set k=20000,recv_delay=100us
