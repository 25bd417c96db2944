best best_barrier_hand.tlop --collective alltoallv,barrier --grid m=1000 --grid P=4 --grid M=1,2 --set map=round_robin
