eval ev.tlop '1e999 ∥ L(1KiB, 1)'
