check rec_direct.tlop
