best ev.tlop --collective bcast --grid m=1KiB --grid P=4 --catalog fifo.txt
