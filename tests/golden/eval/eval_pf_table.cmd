eval pf_table.tlop 'bcast_binomial(1KiB, 12)' --format plain
