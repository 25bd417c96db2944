eval deep_fn_doubling.tlop 'f10(1)' --max-inline 100
