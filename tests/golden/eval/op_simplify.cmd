simplify op_reduce.tlop 'reduce_linear(m, P, max)' --format tlop
