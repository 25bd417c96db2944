eval parse_deep_parens.tlop x --format plain
