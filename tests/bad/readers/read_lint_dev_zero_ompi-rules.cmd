lint --format ompi-rules /dev/zero
