check parse_recovery.tlop
