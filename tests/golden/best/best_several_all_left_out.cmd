best ../../best/real.tlop --collective all --grid m=1..1MiB:*16 --grid P=2,4 --emit ompi-rules-v1 -o -
