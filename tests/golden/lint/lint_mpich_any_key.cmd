lint --format mpich-json lint_mpich_any_key.json
