prove ../../../examples/rda_vs_scatter.tlop
