explain ev.tlop
