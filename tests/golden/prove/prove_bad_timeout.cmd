prove --timeout soon ../../../examples/claims.tlop
