best --help
