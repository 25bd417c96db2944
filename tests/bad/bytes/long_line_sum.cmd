check long_line_sum.tlop
