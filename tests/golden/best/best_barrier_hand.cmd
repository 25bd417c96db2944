sweep best_barrier_hand.tlop barrier_linear barrier_double_ring barrier_recursive_doubling barrier_bruck barrier_tree --grid m=0 --grid P=3,4 --format table
