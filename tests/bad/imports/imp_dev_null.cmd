check imp_dev_null.tlop
