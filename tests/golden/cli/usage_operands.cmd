eval ev.tlop
