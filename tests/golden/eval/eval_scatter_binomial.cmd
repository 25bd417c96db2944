eval ../../../stdlib/mpich/bcast.tlop 'scatter_binomial(m, P)' --set m=3KiB,P=4 --params chan.txt --format plain
