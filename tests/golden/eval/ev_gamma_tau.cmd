eval pf_gamma.tlop '2 ∥ reduce(512)' --format plain
