best count_through.tlop --collective bcast half_linear guarded_half --grid m=8,16 --grid P=4..6
