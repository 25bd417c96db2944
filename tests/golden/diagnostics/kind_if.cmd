check kind_if.tlop
