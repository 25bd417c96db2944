prove --format json ../../../examples/claims.tlop
