check pf_channel_kind.tlop
