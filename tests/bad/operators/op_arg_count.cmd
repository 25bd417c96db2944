eval op_model.tlop 'red(1KiB, P, P)' --set P=3
