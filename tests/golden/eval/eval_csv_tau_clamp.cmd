eval ../../../stdlib/mpich/bcast.tlop 'bcast_binomial(m, P)' --set m=1024,P=8 --params chan.csv --format plain --tau-beyond=clamp
