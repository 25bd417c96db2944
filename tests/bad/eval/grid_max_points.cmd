sweep ev.tlop flat --grid m=1KiB,2KiB --grid P=1,2 --max-points 3
