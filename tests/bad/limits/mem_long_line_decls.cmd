eval mem_long_line_decls.tlop a599999 --max-memory 64MiB
