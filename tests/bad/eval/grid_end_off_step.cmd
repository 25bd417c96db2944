sweep ev.tlop flat --grid m=8..1MiB:*8 --set P=4
