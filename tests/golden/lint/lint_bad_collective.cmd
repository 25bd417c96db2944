lint --format ompi-rules-v1 lint_bad_collective.rules
