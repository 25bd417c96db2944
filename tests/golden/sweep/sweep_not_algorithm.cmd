sweep ev.tlop flat nosuch --grid m=1KiB --grid P=2
