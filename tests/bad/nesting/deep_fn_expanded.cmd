eval deep_fn_expanded.tlop 'f10(1)'
