sweep ev.tlop flat --grid m=1..1e9:+1 --grid P=4
