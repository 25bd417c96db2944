sweep count_through.tlop guarded_half --grid m=8 --grid P=4..6
