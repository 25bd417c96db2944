lint --format impi lint_impi_wrong_coll.txt
