check deep_unary.tlop
