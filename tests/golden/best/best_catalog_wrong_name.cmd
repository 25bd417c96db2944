best best_lab.tlop --collective reduce --catalog best_catalog_wrong_name.txt --grid m=1KiB --grid P=2
