check ev.tlop --set nn=16
