eval ev.tlop flat(m,P) --set m=1KiB,P=4 --params fifo.txt
