explain count_through.tlop half_bruck --set m=8,P=5
