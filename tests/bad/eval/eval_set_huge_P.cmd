eval ev.tlop 'bcast(1KiB, P)' --set P=1e18
