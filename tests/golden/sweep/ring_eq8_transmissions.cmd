eval ring_nodes.tlop 'allgather_ring(1 B, 32, 4, round_robin)' --platform tc41_transmissions
