compare ../../../examples/claims.tlop ring_rr(m,P,Q) ring_seq(m,P,Q) --assume "Q >= 2"
