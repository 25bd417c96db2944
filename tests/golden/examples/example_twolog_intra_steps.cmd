eval ../../../examples/twolog.tlop 'binomial_intra_steps(64, 8, rr == 1)' --set rr=1
