sweep ev.tlop flat --grid m=1KiB..4KiB:*2
