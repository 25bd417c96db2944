check maxover.tlop
