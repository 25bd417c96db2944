lint --format mpich-json lint_mpich_inplace.json
