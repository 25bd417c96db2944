simplify ../../bad/eval/ev.tlop 'if P > 2 then L(m, P/0) else L(m, 1)'
