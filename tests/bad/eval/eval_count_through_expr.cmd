eval count_through.tlop 'allgather_bruck(m, P/2)' --set m=8,P=5
