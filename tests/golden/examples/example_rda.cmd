simplify ../../../examples/rda_vs_scatter.tlop rda --assume 'P = 2^p, p >= 1, m = k*S'
