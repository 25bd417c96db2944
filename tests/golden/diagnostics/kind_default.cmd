check kind_default.tlop
