lint --format impi lint_impi_backwards.txt
