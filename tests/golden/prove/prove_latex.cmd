prove --format latex ../../../examples/rda_vs_scatter.tlop
