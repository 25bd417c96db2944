check imp_proc.tlop
