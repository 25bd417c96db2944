sweep map_short_list.tlop ring --grid P=2,3,4 --set m=1B,M=1,map=nodes(0,0,0,1) --engine jit
