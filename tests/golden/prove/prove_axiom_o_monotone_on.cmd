prove --axiom o-monotone --axiom p-monotone prove_axiom_o_monotone.tlop
