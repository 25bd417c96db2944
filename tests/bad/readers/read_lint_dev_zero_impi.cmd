lint --format impi /dev/zero
