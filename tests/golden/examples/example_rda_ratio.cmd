sweep ../../../examples/rda_vs_scatter.tlop ratio upper_bound --grid P=32,64,128 --set m=8KiB --format table
