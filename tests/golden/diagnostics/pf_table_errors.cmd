check pf_badtable.tlop
