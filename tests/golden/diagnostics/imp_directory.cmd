check imp_directory.tlop
