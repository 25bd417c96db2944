check chan_no_L.tlop
