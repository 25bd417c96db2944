lint --format mpich-json lint_mpich_syntax.json
