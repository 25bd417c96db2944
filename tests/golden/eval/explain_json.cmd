explain ../../../stdlib/mpich/bcast.tlop bcast_binomial --set m=1KiB,P=12 --params chan.txt --format json
