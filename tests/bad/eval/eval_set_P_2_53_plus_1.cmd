eval ev.tlop 'bcast(1KiB, P)' --set P=2^53+1
