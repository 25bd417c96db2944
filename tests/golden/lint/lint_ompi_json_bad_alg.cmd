lint --format ompi-json lint_ompi_json_bad_alg.json
