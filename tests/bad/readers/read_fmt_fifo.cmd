fmt fifo.tlop
