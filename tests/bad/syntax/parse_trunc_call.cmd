check parse_trunc_call.tlop
