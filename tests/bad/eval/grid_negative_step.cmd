sweep ev.tlop flat --grid m=1..10:+-1 --grid P=4
