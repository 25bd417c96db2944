simplify --format tlop ../eval/transmission.tlop 'ring(m, P, M, round_robin)'
