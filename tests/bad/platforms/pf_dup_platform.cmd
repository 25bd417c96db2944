check pf_dup_platform.tlop
