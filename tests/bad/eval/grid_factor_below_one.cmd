sweep ev.tlop flat --grid m=1..1024:*0.5 --grid P=4
