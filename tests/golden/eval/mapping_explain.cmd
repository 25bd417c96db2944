explain transmission.tlop ring --set m=1B,P=8,M=2
