emit ev.tlop flat --set Pq=16
