prove --axiom gamma-monotone --axiom gamma-sublinear prove_axiom_gamma.tlop
