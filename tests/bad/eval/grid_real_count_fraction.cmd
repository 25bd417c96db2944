sweep counted_real.tlop scaled --grid m=8 --grid P=4.5 --grid x=0.5 --engine jit
