lint --format mpich-json lint_mpich_smp.json
