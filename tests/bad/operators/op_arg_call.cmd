eval op_model.tlop 'red(1KiB, 3, max(1, 2))'
