check long_import_name.tlop
