eval deep_fn_chain.tlop 'f9999(1)'
