sweep best_reduce_scatter_hand.tlop reduce_scatter_nonoverlapping reduce_scatter_recursive_halving reduce_scatter_ring reduce_scatter_butterfly --grid m=1000 --grid P=3,4 --format table
