eval ring_nodes.tlop 'eq7(1 B, 32, 8)' --platform tc41
