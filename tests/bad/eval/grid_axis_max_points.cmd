sweep ev.tlop flat --grid m=1..1e6 --set P=4 --max-points 1000
