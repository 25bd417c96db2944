compare ../../../examples/claims.tlop rda
