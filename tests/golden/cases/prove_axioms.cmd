prove --axioms
