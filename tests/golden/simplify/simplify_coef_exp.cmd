simplify simplify.tlop '1e-6 * P + 1e-6 * L(S, 1)'
