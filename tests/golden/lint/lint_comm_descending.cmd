lint --format ompi-rules-v1 lint_comm_descending.rules
