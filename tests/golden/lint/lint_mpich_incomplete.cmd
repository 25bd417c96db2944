lint --format mpich-json lint_mpich_incomplete.json
