lint --format ompi-rules-v1 lint_first_not_zero.rules
