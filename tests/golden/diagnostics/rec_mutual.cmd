check rec_mutual.tlop
