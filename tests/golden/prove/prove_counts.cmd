prove prove_counts.tlop --platform p
