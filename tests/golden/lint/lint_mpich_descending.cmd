lint --format mpich-json lint_mpich_descending.json
