eval ev.tlop '-2 ∥ L(1KiB, 1)'
