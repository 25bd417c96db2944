lint --format json lint_ok_v1.rules
