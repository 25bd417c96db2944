sweep ev.tlop flat --grid m=1KiB,2KiB --set Pp=4
