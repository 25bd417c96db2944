sweep ev.tlop flat --grid m=1KiB..1MiB --set P=4 -o /dev/null
