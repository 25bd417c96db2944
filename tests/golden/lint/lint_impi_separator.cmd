lint --format impi lint_impi_separator.txt
