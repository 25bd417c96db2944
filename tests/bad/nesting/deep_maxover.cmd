check deep_maxover.tlop
