best best_one_node.tlop allgather_ring_ompi allgather_linear_one_node --collective allgather --grid m=1KiB..256KiB:*16 --grid P=4,8 --grid M=1,2 --set map=round_robin
