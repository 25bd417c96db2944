eval ev.tlop flat --set m=1KiB,P=4,Q=16
