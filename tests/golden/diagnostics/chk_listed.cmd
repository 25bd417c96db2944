check chk_listed.tlop
