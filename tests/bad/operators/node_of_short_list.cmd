eval map_short_list.tlop 'node_of(nodes(0, 1), 2, 4, 1) * 1 s'
