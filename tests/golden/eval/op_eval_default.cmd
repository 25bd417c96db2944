eval op_reduce.tlop 'reduce_linear(1KiB, 3)' --format plain
