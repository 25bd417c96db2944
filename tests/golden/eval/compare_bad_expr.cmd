compare ../../../examples/claims.tlop "rda(m,P" scatter(m,P)
