sweep ../../../examples/contention_ring.tlop ring_rr_messages --grid m=1KiB --grid P=8..12:+2 --grid Q=2,3 --platform generic --engine interp
