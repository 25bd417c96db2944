sweep ev.tlop flat --grid m=4KiB..1KiB:*2 --grid P=2
