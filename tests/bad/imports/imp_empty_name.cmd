check imp_empty_name.tlop
