check truth_arith.tlop
