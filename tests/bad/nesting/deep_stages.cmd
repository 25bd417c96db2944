check deep_stages.tlop
