check deep_ceil.tlop
