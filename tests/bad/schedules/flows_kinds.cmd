check flows_kinds.tlop
