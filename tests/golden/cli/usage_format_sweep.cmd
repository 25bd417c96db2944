sweep ev.tlop flat --grid m=1KiB --grid P=2 --format xml
