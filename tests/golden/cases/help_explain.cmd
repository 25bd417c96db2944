explain --help
