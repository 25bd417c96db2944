check deep_calls.tlop
