validate ev.tlop flat --measured big.txt
