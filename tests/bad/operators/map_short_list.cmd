eval map_short_list.tlop 'ring(1 B, 4)' --set map=nodes(0,0,1)
