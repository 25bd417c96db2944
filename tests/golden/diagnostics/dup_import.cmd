check dup_import.tlop
