sweep ev.tlop flat --grid m=1..1e999:*2 --grid P=4
