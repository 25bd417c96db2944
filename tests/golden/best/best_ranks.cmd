best ../../../stdlib/openmpi/reduce.tlop --collective reduce --grid m=1KiB --grid P=2,8 --emit ompi-json --ranks single_node -o -
