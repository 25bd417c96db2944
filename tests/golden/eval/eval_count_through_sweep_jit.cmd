sweep --engine jit count_through.tlop guarded_half half_bruck --grid m=8 --grid P=4..6
