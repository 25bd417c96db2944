sweep ev.tlop flat --grid m=1KiB --grid P=0.5,1.5
