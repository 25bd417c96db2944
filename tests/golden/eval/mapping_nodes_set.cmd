eval transmission.tlop 'ring(m, P)' --platform tc41 --set m=1B,P=4,map=nodes(0,1,0,1)
