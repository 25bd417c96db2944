check kind_instance.tlop
