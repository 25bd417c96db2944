sweep ev.tlop flat --grid m=1..2e8:+1 --set P=4 --max-points 1e10 --max-memory 64MiB
