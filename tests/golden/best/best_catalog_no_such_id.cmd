best best_lab.tlop --collective gather --catalog best_catalog_no_such_id.txt --grid m=1KiB --grid P=2
