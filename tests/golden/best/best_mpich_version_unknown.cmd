best ../../best/real.tlop --collective barrier,alltoallv --grid m=1..1MiB:*8 --grid P=2,3,4 --emit mpich-json --mpich-version 9.9 -o -
