best ../../../stdlib/mpich/bcast.tlop --collective bcast --grid m=1KiB --grid P=4,8 --params chan.txt
