check deep_parens.tlop
