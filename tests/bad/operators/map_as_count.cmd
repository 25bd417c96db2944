check map_as_count.tlop
