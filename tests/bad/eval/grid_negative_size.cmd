sweep ev.tlop flat --grid m=-1KiB,1KiB --grid P=4
