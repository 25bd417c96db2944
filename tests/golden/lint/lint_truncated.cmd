lint --format ompi-rules-v1 lint_truncated.rules
