lint --format ompi-json lint_ompi_json_no_collectives.json
