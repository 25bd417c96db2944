sweep count_through.tlop guarded_half half_linear --grid m=8 --grid P=4..6
