check imp_escape_name.tlop
