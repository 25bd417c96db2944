eval deep_fn_doubling.tlop y
