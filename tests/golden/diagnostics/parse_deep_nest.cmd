check parse_deep_nest.tlop
