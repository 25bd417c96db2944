eval --engine jit ev.tlop 'max i = 3 .. 2 : L(S, i)'
