eval pf_gamma.tlop 'reduce(1KiB)' --format plain
