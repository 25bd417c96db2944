eval pf_table.tlop 'L(1KiB, 1) ∥ L[net](1KiB, 3)' --format plain
