sweep ev.tlop flat --grid m=8,16 --grid P=2 --format table
