explain ../../../stdlib/mpich/gather.tlop scatter_binomial_exact --set 'm=1MiB,P=6,M=3,map=nodes(0,1,2,0,1,2)'
