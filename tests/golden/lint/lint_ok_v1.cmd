lint --format ompi-rules-v1 lint_ok_v1.rules
