eval transmission.tlop 'ring(m, P)' --platform tc41 --set m=1B,P=32,M=4,map=round_robin --engine jit
