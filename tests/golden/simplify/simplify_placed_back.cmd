simplify --format tlop ../eval/transmission.tlop 'repeat P - 1 { messages on round_robin(M) { for p = 0 .. P - 1 { send p -> (p + 1) % P : m; } } }'
