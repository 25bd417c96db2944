check ev.tlop --set m=foo
