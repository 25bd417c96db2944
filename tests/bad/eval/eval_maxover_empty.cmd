eval ev.tlop 'max i = 3 .. 2 : L(S, i)'
