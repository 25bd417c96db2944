sweep ev.tlop flat --grid m=1..1e3:+1 --grid P=1..1e3:+1 --grid S=1..1e3:+1
