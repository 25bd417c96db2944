check rec_self_in_sum.tlop
