plot --help
