simplify ../../bad/eval/ev.tlop 'sum y = 1 .. P - 1 : ((sum i = 1 .. P - 1 : (sum j = 1 .. P - 1 : L(1 KiB, i))) + L(100 B / y, 1))' --assume 'P >= 1' --format tlop
