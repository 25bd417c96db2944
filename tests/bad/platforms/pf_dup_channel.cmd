check pf_dup_channel.tlop
