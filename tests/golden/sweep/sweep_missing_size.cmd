sweep ev.tlop flat --grid P=4
