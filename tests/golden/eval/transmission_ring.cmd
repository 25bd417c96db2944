eval transmission.tlop 'ring(1 B, 8, 4)'
