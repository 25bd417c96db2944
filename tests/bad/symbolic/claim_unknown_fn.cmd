check claim_unknown_fn.tlop
