best best_lab.tlop --grid m=1KiB --grid P=8
