check kind_par_left.tlop
