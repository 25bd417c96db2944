eval transmission.tlop 'ring_by_L(1 B, 8, 4)'
