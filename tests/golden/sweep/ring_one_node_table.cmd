sweep ring_nodes.tlop ring_one_node_difference --grid m=1..2MiB:*8 --grid P=2..130:+16 --params ../../../examples/emit/shm.txt --engine jit --platform generic
