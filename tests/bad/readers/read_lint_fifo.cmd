lint --format impi fifo.txt
