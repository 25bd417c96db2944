sweep counted_zero.tlop r --grid m=1KiB --grid P=1..3:+1 --engine jit
