plot ev.tlop flat --grid m=1..1MiB --set P=4 -o /nonexistent-dir/x.png
