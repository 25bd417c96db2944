eval long_line_decls.tlop a599999
