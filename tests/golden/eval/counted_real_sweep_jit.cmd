sweep counted_real.tlop scaled overlapped --grid m=8,16 --grid P=4 --grid x=0.25,1.5 --set overlap=0.5 --engine jit
