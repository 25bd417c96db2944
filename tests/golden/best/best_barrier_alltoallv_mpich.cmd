best ../../best/real.tlop --collective barrier,alltoallv --grid m=0 --grid P=2,3,4,8 --emit mpich-json --mpich-version 4.0.2 -o -
