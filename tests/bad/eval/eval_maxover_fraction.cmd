eval ev.tlop 'max i = 0.5 .. 3 : L(S, i)'
