eval map_short_list.tlop 'ring(1 B, 4, 1, nodes(0, 1, 0, 1))'
