simplify ev.tlop '(P + 1)^100000 * L(S, 1)' --expand
