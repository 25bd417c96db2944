eval ev.tlop '1e300 ∥ 1e300 ∥ L(1KiB, 1)'
