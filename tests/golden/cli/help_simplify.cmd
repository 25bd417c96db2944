simplify --help
