check imp_dot.tlop
