eval ring_nodes.tlop 'eq8(1 B, 32, 8)' --platform tc41 --engine jit
