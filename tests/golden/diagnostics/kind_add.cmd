check kind_add.tlop
