eval ../../../stdlib/models/hockney.tlop 'hockney_bcast_binomial(m, P)' --set m=1000,P=5
