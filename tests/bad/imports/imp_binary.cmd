check imp_binary.tlop
