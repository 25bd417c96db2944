eval ev.tlop '2 ∥[nosuch] L(1KiB, 1)'
