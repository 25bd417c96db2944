sweep ev.tlop flat --grid m=1024..1:*2 --grid P=4
