check parse_many_args.tlop
