check map_unknown.tlop
