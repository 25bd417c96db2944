prove refute_tables.tlop
