check parse_redefined.tlop
