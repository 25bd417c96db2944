eval ../../../stdlib/mpich/bcast.tlop 'o(m) + L(m * 1 s, 1)' --set m=4096
