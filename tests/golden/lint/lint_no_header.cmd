lint --format ompi-rules lint_ok_v1.rules
