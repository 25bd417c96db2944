check parse_max_errors.tlop --max-errors 3
