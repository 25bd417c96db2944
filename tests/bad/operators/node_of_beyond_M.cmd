eval map_short_list.tlop 'node_of(nodes(0, 1, 0, 1), 1, 4, 1) * 1 s'
