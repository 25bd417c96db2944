eval require.tlop 'tree_then_sm(m, 8)' --set m=1MiB,M=2 --engine jit
