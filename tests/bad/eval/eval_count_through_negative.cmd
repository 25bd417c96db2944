eval count_through.tlop 'bcast_linear(m, P - 6)' --set m=8,P=5
