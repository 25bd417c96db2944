check pf_table_missing.tlop
