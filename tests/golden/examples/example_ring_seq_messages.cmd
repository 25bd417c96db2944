explain ../../../examples/contention_ring.tlop ring_seq_messages --set m=1MiB,P=32,Q=8
