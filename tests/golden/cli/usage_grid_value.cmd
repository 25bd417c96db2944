sweep ev.tlop flat --grid m=1.. --grid P=2
