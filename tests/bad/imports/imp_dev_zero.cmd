check imp_dev_zero.tlop
