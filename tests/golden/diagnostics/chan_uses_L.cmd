check chan_uses_L.tlop
