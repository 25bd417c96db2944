eval op_no_default.tlop a --set m=1KiB
