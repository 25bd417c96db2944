prove --timeout 1e-9 ../../../examples/rda_vs_scatter.tlop
