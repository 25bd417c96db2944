explain ../../../stdlib/openmpi/reduce_scatter.tlop reduce_scatter_recursive_halving --set m=16KiB,P=6,M=4,map=round_robin
