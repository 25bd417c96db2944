lint --format impi --collective nosuch lint_impi_ok.txt
