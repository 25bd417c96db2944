best count_through.tlop --collective bcast lin_half half_lin --grid m=8 --grid P=4,5
