best best_lab.tlop --collective allreduce --grid m=1KiB --grid P=8
