prove ../../../examples/claims.tlop
