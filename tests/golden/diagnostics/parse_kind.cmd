check parse_kind.tlop
