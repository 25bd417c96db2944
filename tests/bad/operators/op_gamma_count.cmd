check op_gamma_count.tlop
