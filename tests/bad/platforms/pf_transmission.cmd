check pf_transmission.tlop
