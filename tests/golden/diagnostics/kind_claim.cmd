check kind_claim.tlop
