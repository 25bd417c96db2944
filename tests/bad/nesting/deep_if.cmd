check deep_if.tlop
