check claim_variables.tlop
