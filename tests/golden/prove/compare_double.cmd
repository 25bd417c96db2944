compare prove_axiom_nonneg.tlop 2*allgather_rda(m,P) allgather_rda(m,P)
