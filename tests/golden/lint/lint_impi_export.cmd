lint --format impi lint_impi_export.txt
