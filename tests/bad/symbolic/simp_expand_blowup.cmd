simplify ev.tlop '(a + b + c + d + e + f + g + h)^20 * L(S, 1)' --expand
