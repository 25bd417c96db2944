eval op_model.tlop 'L(1KiB, op)' --set op=max
