eval count_through.tlop half_linear --set m=8,P=5
