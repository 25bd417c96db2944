lint --format impi lint_impi_unclosed.txt
