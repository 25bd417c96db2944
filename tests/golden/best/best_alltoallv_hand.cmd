sweep best_barrier_hand.tlop alltoallv_linear alltoallv_pairwise --grid m=1000 --grid P=3 --format table
