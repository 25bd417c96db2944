check rec_param_pair.tlop
