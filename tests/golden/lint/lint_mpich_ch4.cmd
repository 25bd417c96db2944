lint --format mpich-ch4-json lint_mpich_ok.json
