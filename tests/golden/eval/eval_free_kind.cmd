eval ../../../stdlib/mpich/bcast.tlop 'o(m/2^(i + 1)) + L(m/2^(i + 1), 2^i)' --set m=4096,i=2 --params chan.txt --format plain
