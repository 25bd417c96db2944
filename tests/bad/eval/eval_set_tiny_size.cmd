eval ev.tlop flat --set m=1e-300,P=4
