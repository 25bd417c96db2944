simplify units_algos.tlop b --format tlop
