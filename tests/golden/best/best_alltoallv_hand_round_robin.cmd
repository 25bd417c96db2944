sweep best_barrier_hand.tlop alltoallv_linear alltoallv_pairwise --grid m=1000 --grid P=4 --set M=2,map=round_robin --format table
