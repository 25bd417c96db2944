simplify --format tlop ../eval/transmission.tlop 'ring(1 KiB, 8, 2, round_robin)'
