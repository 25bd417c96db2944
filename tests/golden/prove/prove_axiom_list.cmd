prove --axioms --axiom gamma-sublinear --axiom L-subadditive
