sweep ev.tlop flat --grid m=1..1e7:+1 --set P=4 --max-memory 64MiB
