lint --format ompi-json lint_ompi_json_gap.json
