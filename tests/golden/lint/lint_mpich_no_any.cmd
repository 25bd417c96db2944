lint --format mpich-json lint_mpich_no_any.json
