check deep_let.tlop
