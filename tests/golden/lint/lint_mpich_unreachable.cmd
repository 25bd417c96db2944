lint --format mpich-json lint_mpich_unreachable.json
