lint --format impi lint_impi_ok.txt
