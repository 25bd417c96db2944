best count_through.tlop --collective bcast half_linear half_bruck --grid m=8 --grid P=4,5
