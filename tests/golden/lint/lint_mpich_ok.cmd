lint --format mpich-json lint_mpich_ok.json
