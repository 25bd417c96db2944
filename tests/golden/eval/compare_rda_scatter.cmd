compare ../../../examples/rda_vs_scatter.tlop 'rda(m, P)' 'scatter(m, P)'
