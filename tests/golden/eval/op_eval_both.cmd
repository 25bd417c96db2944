eval op_reduce.tlop 'reduce_binomial(512, 3, sum) + reduce_binomial(512, 3, max)'
