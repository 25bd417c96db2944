check redef_builtin.tlop
