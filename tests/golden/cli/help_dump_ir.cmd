dump-ir --help
