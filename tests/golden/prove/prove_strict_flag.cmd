prove --strict --assume "m >= 1, S >= 1, p >= 2" ../../../examples/rda_vs_scatter.tlop
