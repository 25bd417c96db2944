prove refute_tables_on.tlop
