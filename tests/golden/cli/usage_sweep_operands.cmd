sweep ev.tlop --grid m=1KiB
