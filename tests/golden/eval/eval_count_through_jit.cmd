eval --engine jit count_through.tlop 'bcast_linear(m, P/2)' --set m=8,P=5
