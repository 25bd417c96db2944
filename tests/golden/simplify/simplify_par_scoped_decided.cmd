simplify ../../bad/eval/ev.tlop '2 ||[net] (if P < 1 then L(1 KiB, P) else L[net](m, P))' --assume 'P >= 1'
