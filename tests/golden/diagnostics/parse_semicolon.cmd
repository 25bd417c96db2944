check parse_semicolon.tlop
