sweep ev.tlop flat --grid P=1..1000 --set m=1KiB -o /dev/null
