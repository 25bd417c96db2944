simplify units_algos.tlop a --format tlop
