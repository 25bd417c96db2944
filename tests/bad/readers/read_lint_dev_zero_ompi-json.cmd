lint --format ompi-json /dev/zero
