lint --format ompi-json .
