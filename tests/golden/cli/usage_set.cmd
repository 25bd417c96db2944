eval ev.tlop 'flat(m, 4)' --set m
