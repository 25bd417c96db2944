explain deep_let_doubling.tlop a --set m=1KiB
