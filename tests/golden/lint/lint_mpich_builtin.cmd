lint --format mpich-json --collective allreduce lint_mpich_builtin.json
