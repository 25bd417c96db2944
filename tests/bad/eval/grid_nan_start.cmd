sweep ev.tlop flat --grid m=0/0..1024:*2 --grid P=4
