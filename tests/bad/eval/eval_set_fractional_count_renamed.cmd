eval ev.tlop 'flat(m, P) + flat(m, Q)' --set m=1KiB,P=4,Q=2.5
