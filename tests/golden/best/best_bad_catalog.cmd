best best_lab.tlop --collective bcast --grid m=1KiB --grid P=8 --catalog best_bad_catalog.txt
