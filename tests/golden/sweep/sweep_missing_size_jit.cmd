sweep ev.tlop flat --grid P=4 --engine jit
