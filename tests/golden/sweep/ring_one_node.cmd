sweep ring_nodes.tlop ring_one_node_difference ring_one_node_explicit --grid m=1..2MiB:*8 --grid P=2..130:+16 --platform generic
