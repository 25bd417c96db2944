check imp_root.tlop
