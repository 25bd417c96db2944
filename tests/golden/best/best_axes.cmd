best best_lab.tlop --collective bcast --grid m=1KiB --grid S=8KiB
