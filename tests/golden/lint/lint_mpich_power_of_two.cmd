lint --format mpich-json lint_mpich_power_of_two.json
