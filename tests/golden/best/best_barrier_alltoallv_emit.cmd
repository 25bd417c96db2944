best best_barrier_hand.tlop --collective barrier,alltoallv --grid m=1000 --grid P=4 --set M=2,map=round_robin --emit ompi-rules-v1 -o -
