lint --format ompi-json big.json
