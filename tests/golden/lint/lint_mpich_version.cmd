lint --format mpich-json --mpich-version 4.1 lint_mpich_ok.json
