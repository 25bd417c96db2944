lint --format ompi-rules-v1 lint_trailing.rules
