lint --format ompi-rules-v1 /dev/zero
