check deep_power.tlop
