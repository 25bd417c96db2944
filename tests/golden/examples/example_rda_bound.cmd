sweep ../../../examples/rda_vs_scatter.tlop upper_bound --grid P=32,64,128
