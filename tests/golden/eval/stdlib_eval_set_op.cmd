eval op_reduce.tlop 'reduce_binomial(1KiB, 3)' --set op=max
