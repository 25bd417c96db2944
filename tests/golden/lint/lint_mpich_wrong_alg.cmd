lint --format mpich-json lint_mpich_wrong_alg.json
