eval pf_table.tlop '4 ∥[net] (o[net](2KiB) + L[net](2KiB, 1))' --format plain
