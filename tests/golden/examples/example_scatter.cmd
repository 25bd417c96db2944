simplify ../../../examples/rda_vs_scatter.tlop scatter --assume 'P = 2^p, p >= 1, m = k*S'
