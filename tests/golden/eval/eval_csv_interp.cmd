eval ../../../stdlib/mpich/bcast.tlop 'bcast_binomial(m, P)' --set m=2560,P=4 --params chan.csv --format plain
