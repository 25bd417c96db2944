check deep_parens_2001.tlop
