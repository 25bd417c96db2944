eval ev.tlop 'max i = 0 .. 2^60 : L(S, i)'
