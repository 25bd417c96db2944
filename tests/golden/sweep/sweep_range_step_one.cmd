sweep ev.tlop flat --grid m=1KiB..1MiB:+1 --set P=4 -o /dev/null
