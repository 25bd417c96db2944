check rec_three.tlop
