check nosuch.tlop
