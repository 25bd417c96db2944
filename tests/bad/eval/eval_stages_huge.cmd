explain ev.tlop steps --set m=1KiB,n=10^7
