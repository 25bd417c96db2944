eval op_model.tlop 'red(1KiB)'
