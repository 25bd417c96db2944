prove nothere.tlop
