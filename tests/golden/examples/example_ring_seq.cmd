eval ../../../examples/contention_ring.tlop 'ring_seq(m, P, Q)' --set m=1MiB,P=32,Q=8
