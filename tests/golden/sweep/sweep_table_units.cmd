sweep ../../../examples/rda_vs_scatter.tlop ratio rda --grid P=4,8 --set m=8KiB --format table
