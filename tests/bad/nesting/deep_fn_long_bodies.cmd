eval deep_fn_long_bodies.tlop 'f9(1)'
