check chan_member.tlop
