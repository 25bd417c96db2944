simplify ev.tlop 'sum j = 1 .. 30 : sum q = 1 .. 30 : sum r = 1 .. 30 : sum u = 1 .. 30 : o(1 MiB)' --unroll
