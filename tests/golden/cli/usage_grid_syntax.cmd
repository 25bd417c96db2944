sweep ev.tlop flat --grid m --grid P=2
