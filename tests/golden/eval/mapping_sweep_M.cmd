sweep transmission.tlop ring --platform tc41 --set m=1B,P=32,map=round_robin --grid M=1,2,4
