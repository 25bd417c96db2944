check deep_sum.tlop
