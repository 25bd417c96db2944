sweep ev.tlop flat --grid m=1..10:+0 --grid P=4
