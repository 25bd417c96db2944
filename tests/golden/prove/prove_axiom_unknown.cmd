prove --axiom o-mono prove_axiom_o_monotone.tlop
