lint --format ompi-rules lint_ok_v2.rules
