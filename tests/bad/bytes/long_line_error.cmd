check long_line_error.tlop
