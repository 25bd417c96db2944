check deep_not.tlop
