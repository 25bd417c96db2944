lint --format mpich-json lint_mpich_misspelt.json
