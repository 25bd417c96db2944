prove --format pdf ../../../examples/claims.tlop
