eval ../../../stdlib/mpich/bcast.tlop 'o(m/8) + L(m/8, 4)' --set m=4KiB --params chan.txt --format plain
