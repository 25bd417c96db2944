check imp_dir.tlop
