eval op_reduce.tlop 'reduce_binomial(1KiB, 3) + reduce_linear(1KiB, 3, sum)' --set op=max --engine jit
