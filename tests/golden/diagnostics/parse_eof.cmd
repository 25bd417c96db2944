check parse_eof.tlop
