validate ev.tlop flat --measured fifo.txt
