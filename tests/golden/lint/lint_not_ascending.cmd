lint --format ompi-rules-v1 lint_not_ascending.rules
