sweep --help
