compare prove_axiom_o_monotone.tlop scatter_binomial(m,P) bcast_binomial(m,P)
