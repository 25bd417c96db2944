best best_barrier_hand.tlop --collective alltoallv --grid m=1000 --grid P=4 --grid M=2 --set map=round_robin --emit ompi-rules-v1 -o -
