check fifo.tlop
