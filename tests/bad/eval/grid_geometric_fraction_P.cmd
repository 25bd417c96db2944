sweep ev.tlop flat --grid m=1KiB --grid P=1..10:*1.5
