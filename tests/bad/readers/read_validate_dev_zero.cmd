validate ev.tlop flat --measured /dev/zero
