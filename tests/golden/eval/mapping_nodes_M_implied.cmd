eval transmission.tlop 'ring(1 B, P) - ring(1 B, 4, 2, nodes(0, 1, 0, 1))' --platform tc41 --set P=4,map=nodes(0,1,0,1)
