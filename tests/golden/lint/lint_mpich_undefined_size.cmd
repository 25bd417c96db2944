lint --format mpich-json --collective gather lint_mpich_undefined_size.json
