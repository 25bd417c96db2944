eval ev.tlop 'flat(m, P)' --set m=1KiB,P=2^53+2
