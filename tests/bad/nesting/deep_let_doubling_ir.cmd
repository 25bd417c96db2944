dump-ir deep_let_doubling.tlop 'a(1 KiB)' --format unicode
